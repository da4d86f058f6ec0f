/** Invalid configuration: one line per bad variable, naming it and never echoing its value. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.map((p) => `Invalid configuration: ${p}`).join('\n'));
    this.name = 'ConfigError';
  }
}
