/**
 * The published Julia wrapper calls unversioned paths (CONTRACT 11): every
 * `/v1/...` public endpoint also answers without `/v1`. The request is
 * rewritten before routing, so it shares everything with its `/v1` twin.
 */
const UNVERSIONED = /^\/(auth|installer|models|analytics|license|devices)(\/|\?|$)/;

export function rewriteLegacyUrl(url: string): string {
  return UNVERSIONED.test(url) ? `/v1${url}` : url;
}
