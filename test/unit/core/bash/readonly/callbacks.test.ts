import { describe, expect, it } from 'vitest'
import { findSedScriptProblem } from '../../../../../src/main/core/bash/readonly/callbacks/sed-script'
import { itClassifies } from '../classify-table'

describe('sed scripts', () => {
  it.each([
    ['1,20p', null],
    ['s/hello/world/g', null],
    ['s|a|b|2p', null],
    ['/start/,/end/{s/x/y/;p}', null],
    ['$!N;P;D', null],
    ['y/abc/xyz/', null],
    ['1~2d', null],
    ['0,/re/Id', null],
    ['\\%path%p', null],
    ['a\\\nappended text with w and e', null],
    ['i inserted; w not a command', null],
    [':loop\nN;b loop', null],
    ['r other.txt', null],
    ['# comment with w\np', null],
    ['q5', null],
    ['w out.txt', 'sed w writes to a file'],
    ['1W out', 'sed W writes to a file'],
    ['s/a/b/w out', 'sed s///w writes to a file'],
    ['s/a/b/gw out', 'sed s///w writes to a file'],
    ['e touch x', 'sed e runs a shell command'],
    ['s/.*/id/e', 'sed s///e runs the pattern space as a shell command'],
    ['p;w x', 'sed w writes to a file'],
    ['/x/{\nw f\n}', 'sed w writes to a file'],
    ['s/a/b', 'sed cannot follow an s command'],
    ['k', 'sed command "k" is not known to be read-only'],
    ['s/a/b/X', 'sed s flag "X" is not known to be read-only'],
  ])('%j → %s', (script, problem) => {
    expect(findSedScriptProblem(script)).toBe(problem)
  })
})

describe('callbacks through classify', () => {
  itClassifies([
    ["sed -n '/foo/p' f", true, 'sed with these flags only reads'],
    ["sed -e 's/a/b/' -e 'w out' f", false, 'sed w writes to a file'],
    ["sed --expression='1e id' f", false, 'sed e runs a shell command'],
    ['sed -f script.sed f', false, 'sed -f reads a script we cannot see'],
    ["jq -r '.items[] | .name' f.json", true, 'jq with these flags only reads'],
    ["jq --arg k v '.[$k]' f.json", true, 'jq with these flags only reads'],
    ["jq -n '$ENV.AWS_SECRET_ACCESS_KEY'", false, 'jq $ENV/env exposes the environment'],
    ["jq -n 'env'", false, 'jq $ENV/env exposes the environment'],
    ['jq \'include "x"; .\' f', false, 'jq include loads code from files'],
    ['jq -n \'import "m" as m; 1\'', false, 'jq import loads code from files'],
    ['jq -f filter.jq f', false, 'jq -f reads its filter from a file'],
    ['jq -L /tmp/mods .', false, 'jq -L loads modules from a directory'],
    ['jq --rawfile x /etc/shadow .', false, 'jq --rawfile reads a file into a variable'],
    ['jq --slurpfile x f .', false, 'jq --slurpfile reads a file into a variable'],
    ['date', true, 'date with these flags only reads'],
    ['date +%Y-%m-%d', true, 'date with these flags only reads'],
    ['date -u -d yesterday +%s', true, 'date with these flags only reads'],
    ['date 010112002026', false, 'date 010112002026 sets the system clock'],
    ['date -s "2020-01-01"', false, 'date -s sets the system clock'],
    ['ps aux', true, 'ps with these flags only reads'],
    ['ps -ef', true, 'ps with these flags only reads'],
    ['ps -o pid,comm -p 1', true, 'ps with these flags only reads'],
    ['ps auxe', false, "ps auxe shows each process's environment"],
    ['ps eww 1', false, "ps eww shows each process's environment"],
    ['find . -name "*.ts" | xargs grep -l foo', true, 'every command only reads (find, xargs)'],
    ['xargs -0 -n1 echo', true, 'xargs with these flags only reads'],
    ['xargs -I {} head -n1 {}', true, 'xargs with these flags only reads'],
    ['xargs', true, 'xargs with these flags only reads'],
    ['xargs rm', false, 'xargs would run rm'],
    ["xargs sh -c 'rm $0'", false, 'xargs would run sh'],
    ['xargs -- sh', false, 'xargs would run sh'],
    ['xargs -I X echo X', false, 'xargs -I is read-only only with the literal {}'],
    ['xargs -p echo', false, 'xargs -p prompts on the terminal'],
    ['gh pr list --repo cli/cli', true, 'gh pr list with these flags only reads'],
    ['gh pr list --repo ghe.example/cli/cli', false, 'could point gh at another host'],
  ])
  itClassifies([['xargs echo', false, 'xargs on Windows is not known to be read-only']], 'win32')
})
