import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyCommand } from '../../../../src/main/core/bash/classify'
import { installEntries, ownControlUse } from '../../../../src/main/core/permissions/own-controls'

const root = realpathSync(mkdtempSync(join(tmpdir(), 'sg-own-')))
const userHome = join(root, 'home')
const shellgateHome = join(userHome, '.shellgate')
const workspace = join(root, 'ws')
const install = join(root, 'checkout')
for (const dir of [shellgateHome, join(shellgateHome, 'run'), workspace, join(install, 'bin')])
  mkdirSync(dir, { recursive: true })
const places = {
  shellgateHome,
  userHome,
  cwd: workspace,
  selfEntries: installEntries(join(install, 'bin', 'shellgate.js')),
}
const judge = (command: string, where = places) =>
  ownControlUse(classifyCommand(command, { cwd: where.cwd, workspace }), where)

describe("Shellgate's own controls are never an agent's", () => {
  it.each([
    'shellgate ui',
    'shellgate serve --open',
    'shellgate connect claude-code --write',
    'shellgate hook codex',
    'shellgate exec -- touch x',
    'shellgate ticket sgt_AAAA',
    'shellgate mcp',
    'shellgate run -- rm -rf x',
    'shellgate --json ui',
    '/usr/local/bin/shellgate ui',
    './node_modules/.bin/shellgate serve',
    'npx shellgate ui',
    'npx -y shellgate@latest serve',
    'npx --package shellgate shellgate ui',
    'npm exec shellgate -- ui',
    'npm x -- shellgate ui',
    'pnpm dlx shellgate hook codex',
    'yarn shellgate exec -- ls',
    'bunx shellgate ui',
    'node /opt/apps/shellgate/bin/shellgate.js ui',
    'node /srv/shellgate/out/main/cli.js serve',
    `node ${install}/bin/shellgate.js ui`,
    `node --import tsx ${install}/src/main/cli.ts ui`,
    `tsx ${install}/src/main/cli.ts connect codex --write`,
    'node -e \'import("/opt/shellgate/out/main/cli.js")\' ui',
    '$(which shellgate) ui',
    'SG=shellgate; $SG ui',
    '`command -v shellgate` serve',
    'FOO=1 shellgate ui',
    'env -i PATH=/usr/bin shellgate ui',
    'sudo -u me shellgate ui',
    'timeout 5 shellgate ui',
    'nohup shellgate serve &',
    "bash -c 'shellgate ui'",
    "sh -lc 'npx shellgate serve'",
    'eval shellgate ui',
    'echo ui | xargs shellgate',
    'find . -exec shellgate ui \\;',
    'ls && shellgate ui',
  ])('denies %s', (command) => {
    expect(judge(command)).toMatch(/Shellgate/)
  })

  it.each([
    'cat $SHELLGATE_HOME/audit.jsonl',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's own ${…}, as an agent writes it.
    'cat "${SHELLGATE_HOME}/run/hub.sock"',
    `cat ${shellgateHome}/audit.jsonl`,
    `ls ${shellgateHome}`,
    'ls ~/.shellgate/run',
    'cat "$HOME/.shellgate/settings.json"',
    `socat - UNIX-CONNECT:${shellgateHome}/run/hub.sock`,
    `grep key < ${shellgateHome}/settings.json`,
    `cat ../home/.shellgate/audit.jsonl`,
    `cd .. && cat home/.shellgate/audit.jsonl`,
    `curl --unix-socket=${shellgateHome}/run/hub.sock http://x/`,
  ])('denies %s (under SHELLGATE_HOME)', (command) => {
    expect(judge(command)).toMatch(/Shellgate's own folder/)
  })

  it.each([
    'shellgate classify ls',
    'shellgate classify --json "rm -rf x"',
    'shellgate --version',
    'shellgate --help',
    'shellgate',
    'shellgate sandbox status',
    'shellgate env --json',
    'npx shellgate classify ls',
    'grep -rn shellgate README.md',
    'cat bin/shellgate.js',
    'ls .shellgate',
    'cat .shellgate/settings.json',
    'node build.js',
    'git log --oneline',
  ])('leaves %s to the usual decision', (command) => {
    expect(judge(command)).toBeNull()
  })
})
