import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '../../../..');
const guide = readFileSync(join(ROOT, 'docs/EXTENDING.md'), 'utf8');
// the guide's "Adding a webhook event type", whatever its number, up to the next section
const start = /^## \d+\. Adding a webhook event type$/m.exec(guide);
const after = start ? guide.slice(start.index + start[0].length) : '';
const section = start ? after.slice(0, /^## /m.exec(after)?.index ?? after.length) : '';

/** Every TypeScript source under the folders the guide points into. */
function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}
const code = ['libs', 'test/in-memory', 'test/e2e'].flatMap((folder) => sources(join(ROOT, folder)));
const text = code.map((path) => readFileSync(path, 'utf8')).join('\n');
const names = [...section.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);

/** docs/EXTENDING.md "Adding a webhook event type" names what is there. */
describe('EXTENDING.md: adding a webhook event type', () => {
  it('is there, between "Adding a database" and "Where each rule lives"', () => {
    expect(section).toContain('**Step 4: tests.**');
  });

  it('names files that exist', () => {
    const files = names.filter((name) => name.endsWith('.ts')).map((name) => name.replace(/<database>/g, 'mysql'));
    expect(files.length).toBeGreaterThan(5);
    const missing = files.filter((file) =>
      file.includes('/')
        ? !code.some((path) => path.endsWith(file.startsWith('persistence/') ? `infrastructure/src/${file}` : file))
        : !code.some((path) => path.endsWith(`/${file}`)),
    );
    expect(missing).toEqual([]);
  });

  it('names symbols that are declared', () => {
    const symbols = names.filter((name) => /^[A-Za-z_]\w*(\.\w+)?$/.test(name) && !/^[a-z]+\.[a-z]+$/.test(name));
    expect(symbols).toEqual(expect.arrayContaining(['WEBHOOK_EVENT_TYPES', 'quotaNoticesOf', 'InMemoryUnitOfWork']));
    const missing = symbols.filter((symbol) => {
      const [owner, member] = symbol.split('.');
      const declared = new RegExp(`(class|interface|type|function|const) ${owner}\\b`).test(text);
      return !declared || (member !== undefined && !new RegExp(`\\b${member}\\(`).test(text));
    });
    expect(missing).toEqual([]);
  });

  it("shows RecordEvent's unit of work as it is", () => {
    const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const useCase = readFileSync(join(__dirname, '../analytics/record-event.use-case.ts'), 'utf8');
    const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
    expect(example).toContain('unitOfWork.run');
    expect(flat(useCase)).toContain(
      flat(example)
        .replace(/^const used = await /, '')
        .replace(/;$/, ''),
    );
  });
});
