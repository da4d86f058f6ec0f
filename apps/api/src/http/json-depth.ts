/**
 * The deepest nesting a JSON body may have; the body object itself is level 1.
 * Deeper bodies are refused before they are parsed: class-transformer,
 * class-validator and JSON.stringify walk a value recursively, and thousands
 * of levels overflow the stack. Every body this API takes is far
 * shallower (an analytics event's metadata included).
 */
export const MAX_JSON_DEPTH = 32;

/** What an INVALID_REQUEST answer for a body nested too deep says. */
export const JSON_TOO_DEEP = `The body is nested deeper than ${MAX_JSON_DEPTH} levels`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether the JSON text opens more than `maxDepth` arrays and objects inside
 * one another. One pass over the text, allocating nothing: brackets and braces
 * are counted outside strings, and each string is skipped to its closing
 * quote with `indexOf`. Text that is not JSON gives some answer; the parser
 * refuses it either way.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  const length = text.length;
  let depth = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i;
      do {
        end = text.indexOf('"', end + 1);
        if (end === -1) return false; // an unterminated string: not JSON
      } while (isEscaped(text, end));
      i = end;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** A quote is escaped when an odd run of backslashes comes right before it (each run is read once: linear overall). */
function isEscaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let j = quote - 1; text.charCodeAt(j) === BACKSLASH; j--) backslashes++;
  return backslashes % 2 === 1;
}
