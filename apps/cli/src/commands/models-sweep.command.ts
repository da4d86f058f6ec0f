import { SweepModelStore } from '@svc/application';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';

/**
 * `models sweep`: removes the files of the model store (MODEL_STORE_DIR) that
 * no record names (CONTRACT 7), as the API does at start-up. Never a file a
 * record names, one being written, or one written in the last ten minutes.
 * Uploads left unfinished for over a day are aborted (CONTRACT 19).
 */
@SubCommand({
  name: 'sweep',
  description:
    'remove the files of the model store that no model record names (files younger than 10 minutes are kept), and abort uploads left unfinished for over a day',
})
export class ModelsSweepCommand extends CliCommand {
  constructor(private readonly sweep: SweepModelStore) {
    super();
  }

  async run(_params: string[], options: CommonOptions = {}): Promise<void> {
    const result = await this.sweep.execute();
    this.print(options, { removed: result.removed, kept: result.kept, aborted_uploads: result.abortedUploads }, () =>
      [
        ...(result.removed.length === 0
          ? [`Nothing to remove (${result.kept} files kept).`]
          : [`Removed ${result.removed.length} files no model names (${result.kept} kept):`, ...result.removed.map((path) => `  ${path}`)]),
        ...(result.abortedUploads.length === 0
          ? []
          : [
              `Aborted ${result.abortedUploads.length} uploads unfinished for over a day:`,
              ...result.abortedUploads.map((path) => `  ${path}`),
            ]),
      ].join('\n'),
    );
  }
}
