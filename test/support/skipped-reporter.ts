import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { type SkippedTests, skippedLine } from './services.js';

/** Tests vitest.config.ts left out of a project's run, and which files they are. */
export interface LeftOutByConfig {
  project: string;
  files: readonly string[];
  skip: SkippedTests;
}

/**
 * Ends the run with one line naming the tests left out for want of a program, and the command that
 * installs each (services.ts); says nothing when nothing was left out. Placed after the default
 * reporter, so the line comes after its summary.
 *
 * Skips come from two places: those vitest.config.ts decided (the browser tests, left out of the
 * run when there is no Chromium) are handed to the constructor, and those the global setups decided
 * (Redis, PostgreSQL's programs) are read from what they provided to their project.
 */
export class SkippedTestsReporter implements Reporter {
  private vitest: Vitest | undefined;

  constructor(private readonly leftOutByConfig: readonly LeftOutByConfig[]) {}

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (!this.vitest) return;
    const root = this.vitest.config.root;
    const ran = testModules.map((module) => path.relative(root, module.moduleId));
    const skipped = [
      ...this.leftOutByConfig.filter((leftOut) => this.wouldHaveRun(leftOut)).map(({ skip }) => skip),
      // a setup's skip concerns a few files of its project: said when one of them ran (skipped)
      ...this.vitest.projects
        .flatMap((project) => project.getProvidedContext().skippedTests ?? [])
        .filter((skip) => !skip.files || skip.files.some((file) => ran.includes(file))),
    ];
    if (skipped.length > 0) this.vitest.logger.log(skippedLine(skipped));
  }

  /**
   * Whether this run would have run those files: their project is in it (not left out by
   * --project), and the file filters on the command line, if any, match one of them. Vitest keeps
   * those filters in a member it marks internal; should it go, every such skip is reported.
   */
  private wouldHaveRun({ project, files }: LeftOutByConfig): boolean {
    const vitest = this.vitest;
    if (!vitest?.projects.some((candidate) => candidate.name === project)) return false;
    const filters = (vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
    if (!filters || filters.length === 0) return true;
    const relative = filters.map((filter) =>
      path.isAbsolute(filter) ? path.relative(vitest.config.root, filter) : filter,
    );
    return files.some((file) => relative.some((filter) => file.includes(filter)));
  }
}
