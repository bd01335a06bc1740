import type { CliCommand } from '../command'

/** One `shellgate <name>`: its line in --help, and its code, loaded only when it runs (issue 20). */
export interface CommandEntry {
  summary: string
  load(): Promise<CliCommand>
}

/**
 * Every `shellgate <name>` subcommand; each lives in its own file beside this one, imported only
 * when that command runs, so `--version` or a hook never loads the MCP SDK, the verdict or the
 * executor (a hook runs on every command an agent makes).
 */
export const commands: Record<string, CommandEntry> = {
  classify: {
    summary: 'say whether a command is read-only (runs without asking), and why',
    load: () => import('./classify').then((module) => module.classifyCommandCli),
  },
  connect: {
    summary: 'print (or --write) the config that connects an agent to Shellgate',
    load: () => import('./connect').then((module) => module.connectCommand),
  },
  doctor: {
    summary: 'check each agent client is connected to Shellgate, and say how to fix what is not',
    load: () => import('./doctor').then((module) => module.doctorCommand),
  },
  env: {
    summary: 'login-shell capture and the sanitised/sealed environment (values redacted)',
    load: () => import('./env').then((module) => module.envCommand),
  },
  exec: {
    summary: 'run a command through the Bash tool path: policy, approval, executor',
    load: () =>
      import('./exec').then((module) =>
        module.makeExecCommand((options) =>
          import('./exec-local').then((local) => local.execLocally(options)),
        ),
      ),
  },
  hook: {
    summary: "answer an agent's pre-tool hook (claude-code, codex, gemini) from the Shellgate hub",
    load: () => import('./hook').then((module) => module.hookCommand),
  },
  mcp: {
    summary: 'an MCP server (stdio) whose commands go through the Shellgate hub',
    load: () => import('./mcp').then((module) => module.mcpCommand),
  },
  net: {
    summary: "show where the app's own requests go (resolve) or try one (fetch)",
    load: () => import('./net').then((module) => module.netCommand),
  },
  run: {
    summary: 'run one program (argv, no shell) with a clean env, a timeout and an output budget',
    load: () => import('./run').then((module) => module.runCommand),
  },
  sandbox: {
    summary: 'which OS sandbox works here, and the sandbox setting',
    load: () => import('./sandbox').then((module) => module.sandboxCommand),
  },
  serve: {
    summary: 'serve the Shellgate UI on 127.0.0.1 (browser mode) until Ctrl+C',
    load: () => import('./serve').then((module) => module.serveCommand),
  },
  shells: {
    summary: 'shell candidates and the selection for new sessions',
    load: () => import('./shells').then((module) => module.shellsCommand),
  },
  ticket: {
    summary: "run the command a hook allowed (the client's shell tool runs this; an agent may not)",
    load: () => import('./ticket').then((module) => module.ticketCommand),
  },
  ui: {
    summary: "open a login to the running Shellgate's UI in your browser",
    load: () => import('./ui').then((module) => module.uiCommand),
  },
}
