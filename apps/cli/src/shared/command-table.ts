import type { Command, Help } from 'commander';

/** The options every command takes (CliCommand's and commander's own), said once beside the table instead of on every row. */
const COMMON_OPTIONS = new Set(['--json', '--verbose', '--help']);

/** The README's markers around the table of commands (`npm run docs:cli` rewrites what is between them). */
export const COMMAND_TABLE_START = '<!-- cli-commands:start -->';
export const COMMAND_TABLE_END = '<!-- cli-commands:end -->';

/**
 * The table of the CLI's commands, as Markdown, made from commander's help of
 * the program itself (the terms, descriptions and options `--help` prints,
 * unwrapped): one row per command that runs (`keys list`, `migrate`; not the
 * parents `keys`, `models`), in the order `--help` lists them.
 */
export function commandTable(program: Command): string {
  const help = program.createHelp();
  const rows = leafRows(program, help, []);
  return [
    '| Command | Options | What it does |',
    '|---|---|---|',
    ...rows.map(({ term, options, description }) => `| ${cell(term)} | ${options.map(cell).join(' ')} | ${escape(description)} |`),
  ].join('\n');
}

interface Row {
  readonly term: string;
  readonly options: readonly string[];
  readonly description: string;
}

function leafRows(command: Command, help: Help, path: readonly string[]): Row[] {
  return subcommandsOf(command, help).flatMap((sub) => {
    if (subcommandsOf(sub, help).length > 0) return leafRows(sub, help, [...path, sub.name()]);
    const term = [...path, help.subcommandTerm(sub).replace(' [options]', '')].join(' ');
    const options = help
      .visibleOptions(sub)
      .filter((option) => !COMMON_OPTIONS.has(option.long ?? ''))
      .map((option) => help.optionTerm(option));
    return [{ term, options, description: help.subcommandDescription(sub) }];
  });
}

/** A command's visible subcommands, without commander's implicit `help`. */
function subcommandsOf(command: Command, help: Help): Command[] {
  return help.visibleCommands(command).filter((sub) => sub.name() !== 'help');
}

function cell(text: string): string {
  return `\`${escape(text)}\``;
}

/** A pipe would end the Markdown cell. */
function escape(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/**
 * `document` with the table put between its markers (each on a line of its
 * own), or an error naming what is missing.
 */
export function withCommandTable(document: string, table: string): string {
  const start = document.indexOf(COMMAND_TABLE_START);
  const end = document.indexOf(COMMAND_TABLE_END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`the document has no ${COMMAND_TABLE_START} … ${COMMAND_TABLE_END} markers (in that order)`);
  }
  return `${document.slice(0, start + COMMAND_TABLE_START.length)}\n${table}\n${document.slice(end)}`;
}

/** What is between the markers now, without the line breaks next to them (null without markers). */
export function commandTableIn(document: string): string | null {
  const start = document.indexOf(COMMAND_TABLE_START);
  const end = document.indexOf(COMMAND_TABLE_END);
  if (start === -1 || end === -1 || end < start) return null;
  return document
    .slice(start + COMMAND_TABLE_START.length, end)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}
