/**
 * A Jest reporter that writes how long each test file took, per project, to the file named by
 * TEST_TIMINGS_FILE (`npm run test:timings` writes test/timings.json with it): the files slowest
 * first, with the run's wall time and the sum of the files' own times, so that a change to the
 * suite is judged by figures.
 */
const { writeFileSync } = require('node:fs');
const { relative } = require('node:path');

class TimingReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.files = [];
  }

  onTestResult(test, result) {
    const seconds = (result.perfStats.end - result.perfStats.start) / 1000;
    this.files.push({
      project: test.context.config.displayName?.name ?? 'default',
      file: relative(this.rootDir, result.testFilePath),
      seconds: Math.round(seconds * 10) / 10,
      tests: result.numPassingTests + result.numFailingTests + result.numPendingTests,
      failed: result.numFailingTests,
    });
  }

  onRunComplete(_contexts, results) {
    const file = process.env.TEST_TIMINGS_FILE;
    if (!file) return;
    const files = [...this.files].sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
    const byProject = {};
    for (const f of files) byProject[f.project] = Math.round(((byProject[f.project] ?? 0) + f.seconds) * 10) / 10;
    const report = {
      wall_seconds: Math.round((Date.now() - results.startTime) / 100) / 10,
      files_seconds: Math.round(files.reduce((sum, f) => sum + f.seconds, 0) * 10) / 10,
      tests: results.numTotalTests,
      passed: results.numPassedTests,
      skipped: results.numPendingTests,
      failed: results.numFailedTests,
      by_project_seconds: byProject,
      files,
    };
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  }
}

module.exports = TimingReporter;
