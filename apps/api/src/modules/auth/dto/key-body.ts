/**
 * The body of the auth endpoints as parsed JSON. It is deliberately not a
 * validated DTO: the key's own checks (missing, then format) must answer
 * before any other field is judged (CONTRACT 2), and they live in the domain.
 */
export type KeyBody = Readonly<Record<string, unknown>> | undefined;
