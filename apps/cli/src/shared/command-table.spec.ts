import { Command } from 'commander';
import { COMMAND_TABLE_END, COMMAND_TABLE_START, commandTable, commandTableIn, withCommandTable } from './command-table';

/** A small program built as nest-commander builds the CLI's: parents with subcommands, options, arguments. */
function program(): Command {
  const root = new Command('svc-cli');
  const keys = root.command('keys').description('the keys');
  keys
    .command('list')
    .description('list keys | newest first')
    .option('--email <address>', 'by e-mail')
    .option('--json', 'print JSON')
    .option('--verbose', 'stacks');
  keys.command('show').argument('<key_id>', 'the key').description('show a key').option('--json', 'print JSON');
  root.command('migrate').description('apply migrations').option('--json', 'print JSON');
  return root;
}

describe('commandTable', () => {
  it("renders a row per command that runs, from commander's help: term with arguments, its own options, description", () => {
    expect(commandTable(program()).split('\n')).toEqual([
      '| Command | Options | What it does |',
      '|---|---|---|',
      '| `keys list` | `--email <address>` | list keys \\| newest first |',
      '| `keys show <key_id>` |  | show a key |',
      '| `migrate` |  | apply migrations |',
    ]);
  });
});

describe('withCommandTable / commandTableIn', () => {
  const document = ['# Title', '', COMMAND_TABLE_START, 'old table', COMMAND_TABLE_END, '', 'after'].join('\n');

  it('replaces what is between the markers, and reads it back', () => {
    const written = withCommandTable(document, '| new |');
    expect(written).toBe(['# Title', '', COMMAND_TABLE_START, '| new |', COMMAND_TABLE_END, '', 'after'].join('\n'));
    expect(commandTableIn(written)).toBe('| new |');
    expect(withCommandTable(written, '| new |')).toBe(written);
  });

  it('refuses a document without both markers, in order', () => {
    expect(() => withCommandTable('# no markers', '| t |')).toThrow(/cli-commands:start/);
    expect(() => withCommandTable(`${COMMAND_TABLE_END}\n${COMMAND_TABLE_START}`, '| t |')).toThrow(/in that order/);
    expect(commandTableIn('# no markers')).toBeNull();
  });
});
