// Every import of a source file, read by TypeScript's own parser (`import type`, `export ... from`,
// `import()` and multi-line imports included): the boundary and contract tests check them.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"

export const root = resolve(new URL("../..", import.meta.url).pathname)

export interface Import {
  /** The importing file, relative to the root. */
  readonly file: string
  /** The specifier as written. */
  readonly from: string
  /** The imported file relative to the root, without extension (for relative specifiers), else undefined. */
  readonly target: string | undefined
  /** `import type`, `export type`, or every named element `type`: erased, loads nothing. */
  readonly typeOnly: boolean
  /** The names imported or re-exported (as the imported file exports them); empty for `*`, default or `import()`. */
  readonly names: ReadonlyArray<string>
}

export const sourcesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(join(root, path)).isDirectory()) return name === "node_modules" || name === "locales" ? [] : sourcesUnder(path)
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : []
  })

const allTypeOnly = (elements: ReadonlyArray<{ readonly isTypeOnly: boolean }> | undefined) =>
  elements !== undefined && elements.length > 0 && elements.every((element) => element.isTypeOnly)

/** A source file (relative to the root; read from disk unless `text` is given) parsed by TypeScript, as TSX for a .tsx file. */
export const parsedSource = (file: string, text = readFileSync(join(root, file), "utf8")) =>
  ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)

/** Every import and re-export of a file. */
export const importsOf = (file: string, text?: string): ReadonlyArray<Import> => {
  const source = parsedSource(file, text)
  const found: Array<Import> = []
  const namesOf = (elements: ReadonlyArray<ts.ImportSpecifier | ts.ExportSpecifier> | undefined) =>
    (elements ?? []).map((element) => (element.propertyName ?? element.name).text)
  const add = (from: string, typeOnly: boolean, names: ReadonlyArray<string> = []) => {
    const target = from.startsWith(".") ? relative(root, resolve(root, dirname(file), from)).replace(/\.(js|mjs|tsx?)$/, "") : undefined
    found.push({ file, from, target, typeOnly, names })
  }
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const bindings = clause?.namedBindings
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && allTypeOnly(bindings.elements)))
      add(node.moduleSpecifier.text, typeOnly, bindings !== undefined && ts.isNamedImports(bindings) ? namesOf(bindings.elements) : [])
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause
      const named = clause !== undefined && ts.isNamedExports(clause) ? clause.elements : undefined
      add(node.moduleSpecifier.text, node.isTypeOnly || allTypeOnly(named), namesOf(named))
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      add(node.moduleReference.expression.text, node.isTypeOnly)
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const isDynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === "require"
      if (isDynamic || isRequire) add(node.arguments[0].text, false)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}
