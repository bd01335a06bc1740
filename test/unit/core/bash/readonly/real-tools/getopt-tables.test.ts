import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { CommandPolicy } from '../../../../../../src/main/core/bash/readonly/flag-types'
import { COMMAND_POLICIES } from '../../../../../../src/main/core/bash/readonly/policy-tables'
import { compareWithTool, missingFromTable } from './table-vs-tool'

/**
 * Every table of a getopt_long tool against the installed tool (Debian 12: coreutils 9.1,
 * diffutils 3.8, grep 3.8, sed 4.9, tar 1.34, file 5.44, findutils' xargs 4.9, util-linux 2.38,
 * procps-ng 4.0.2, psmisc, net-tools, iproute2, systemd 252, binutils 2.40). The tools with a
 * grammar of their own (find, xxd, jq, ps, lsof, which, getconf, awk, tshark) are not probed here.
 *
 * `ignoredHelp`: names the tool's --help prints that the table leaves out on purpose.
 */
const GETOPT_TOOLS: Readonly<Record<string, { ignoredHelp?: string[] }>> = {
  ls: {},
  du: {},
  df: {},
  stat: {},
  realpath: {},
  readlink: {},
  basename: {},
  dirname: {},
  md5sum: {},
  sha256sum: {},
  b2sum: {},
  cksum: {},
  sum: {},
  cmp: {},
  comm: {},
  tac: {},
  fold: {},
  fmt: {},
  expand: {},
  unexpand: {},
  paste: {},
  join: {},
  nl: {},
  od: {},
  base64: {},
  // -M is a field range in the --field text, not an option.
  numfmt: { ignoredHelp: ['-M'] },
  tr: {},
  seq: {},
  sleep: {},
  factor: {},
  whoami: {},
  groups: {},
  nproc: {},
  tty: {},
  id: {},
  uname: {},
  who: {},
  users: {},
  w: {},
  pstree: {},
  pgrep: {},
  uptime: {},
  free: {},
  netstat: {},
  locale: {},
  // --GTYPE-group-format and --LTYPE-line-format stand for --old-/--new-/--changed-… in --help.
  diff: { ignoredHelp: ['--GTYPE-group-format', '--LTYPE-line-format'] },
  hexdump: {},
  rev: {},
  column: {},
  lscpu: {},
  lsblk: {},
  top: {},
  strings: {},
  objdump: {},
  readelf: {},
  head: {},
  tail: {},
  cat: {},
  wc: {},
  // -M appears in the text about field ranges (N-M), not as an option.
  cut: { ignoredHelp: ['-M'] },
  sort: {},
  uniq: {},
  shuf: {},
  sed: {},
  grep: {},
  date: {},
  xargs: {},
  file: {},
  hostname: {},
  ss: {},
  tar: {},
  journalctl: {},
}

function installed(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).status === 0
}

describe.each(Object.entries(GETOPT_TOOLS))(
  '%s table against the installed tool',
  (tool, { ignoredHelp }) => {
    const policy = COMMAND_POLICIES.get(tool) as CommandPolicy
    // A reader can check why: the tool is not on this machine's PATH (.ci/run installs the list).
    const present = installed(tool)

    it.runIf(present).concurrent(
      'has every option it allows or refuses, under that name and with that kind of value',
      async () => {
        expect(policy, `${tool} has a table`).toBeDefined()
        expect(await compareWithTool(tool, policy)).toEqual([])
      },
    )

    it.runIf(present)('knows every option the tool documents', () => {
      expect(missingFromTable(tool, policy, ignoredHelp)).toEqual([])
    })
  },
)
