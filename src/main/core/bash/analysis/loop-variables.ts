// A loop variable of ours must not be one bash or the tools give meaning (PATH, IFS, HOME…).
const LOOP_VARIABLE = /^[a-z_][a-z0-9_]*$/
// zsh ties these lowercase names to PATH, CDPATH, FPATH… (`for path in ./d; do ls; done` runs
// ./d/ls there) or gives them meaning of its own; sessions may run zsh.
const ZSH_SPECIAL_VARIABLES = new Set([
  'path',
  'cdpath',
  'fpath',
  'manpath',
  'mailpath',
  'module_path',
  'psvar',
  'fignore',
  'watch',
  'argv',
  'status',
  'pipestatus',
  'histchars',
  'prompt',
  'signals',
  'options',
  'parameters',
  'commands',
  'functions',
  'aliases',
  'builtins',
  'nameddirs',
  'userdirs',
])

/** Whether a for loop may assign this name without changing how later commands run. */
export function isSafeLoopVariable(name: string): boolean {
  return LOOP_VARIABLE.test(name) && !ZSH_SPECIAL_VARIABLES.has(name)
}
