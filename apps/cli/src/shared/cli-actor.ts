import { type Actor } from '@svc/domain';
import { userInfo } from 'node:os';

/** The actor of the CLI's changes (CONTRACT 21): the OS user running it (its uid when it has no name). */
export function cliActor(): Actor {
  try {
    return { type: 'cli', user: userInfo().username };
  } catch {
    return { type: 'cli', user: `uid ${process.getuid?.() ?? 'unknown'}` };
  }
}
