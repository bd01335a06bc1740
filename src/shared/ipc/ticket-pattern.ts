/**
 * A hook ticket (issue 20) is 32 random bytes in base64url after this prefix; nothing else is one.
 * Its own file without zod: `shellgate ticket` checks it before loading anything else.
 */
export const TICKET_PATTERN = /^sgt_[A-Za-z0-9_-]{43}$/
