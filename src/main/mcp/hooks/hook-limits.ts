/** Hook input is one tool call; anything larger is not a hook's input. */
export const HOOK_INPUT_MAX_BYTES = 1024 * 1024
