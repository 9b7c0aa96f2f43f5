/**
 * A choice among a few options shown side by side (a radio group): each radio sits inside its own
 * label, so a label can never be read as another option's. Arrow keys move between options (native
 * radios); the group is named by its legend.
 */
export const SegmentedControl = <V extends string>({
  legend,
  name,
  value,
  options,
  onChange
}: {
  legend: string
  name: string
  value: V
  options: ReadonlyArray<{ readonly value: V; readonly label: string; readonly tone?: "success" | "danger" | "neutral" }>
  onChange: (value: V) => void
}) => (
  <fieldset className="segmented-control">
    <legend>{legend}</legend>
    <div className="segmented-options">
      {options.map((option) => (
        <label key={option.value} className="segmented-option" data-tone={option.tone ?? "neutral"}>
          <input type="radio" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  </fieldset>
)
