import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * Vitest's order (failed first, then the longest by the last run's durations, else the largest file),
 * with the route walk's files first: they are the longest of the browser project by far (about a minute
 * each) and three lines long, so on a clean clone, with no durations yet, they would start last and
 * leave one worker walking alone at the end.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const isWalk = (file: TestSpecification) => /\/walk-[\w-]+\.test\.ts$/.test(file.moduleId)
    return [...sorted.filter(isWalk), ...sorted.filter((file) => !isWalk(file))]
  }
}
