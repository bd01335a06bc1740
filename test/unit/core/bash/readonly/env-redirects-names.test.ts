import { describe } from 'vitest'
import { itClassifies } from '../classify-table'

describe('env-assignment allowlist', () => {
  itClassifies([
    ['LANG=C ls', true, 'ls with these flags only reads'],
    ['LC_ALL=C TZ=UTC NO_COLOR=1 CI=true GIT_TERMINAL_PROMPT=0 ls', true, 'ls with these flags only reads'],
    ['PAGER=evil ls', false, 'setting PAGER can change what the command runs'],
    ['GIT_PAGER=evil git log', false, 'setting GIT_PAGER'],
    ['LD_PRELOAD=/tmp/x.so cat f', false, 'setting LD_PRELOAD'],
    ['PATH=/tmp cat f', false, 'setting PATH'],
    ['HOME=/tmp git status', false, 'setting HOME'],
    ['LANG=$X ls', false, '$X is a variable expanded at run time'],
    ['LANG=C', false, 'there is no command, only assignments or redirects'],
  ])
})

describe('redirects', () => {
  itClassifies([
    ['grep x < input.txt', true, 'grep with these flags only reads'],
    ['cat <<EOF\nhello\nEOF', true, 'cat with these flags only reads'],
    ['wc -l <<< "a b"', true, 'wc with these flags only reads'],
    ['ls 2>/dev/null', true, 'ls with these flags only reads'],
    ['ls >/dev/null 2>&1', true, 'ls with these flags only reads'],
    ['ls &>/dev/null', true, 'ls with these flags only reads'],
    ['ls 2>&-', true, 'ls with these flags only reads'],
    ['ls > out.txt', false, '> out.txt writes to a file'],
    ['ls >> log', false, '>> log writes to a file'],
    ['ls 2> err', false, '2> err writes to a file'],
    ['ls &> all', false, '&> all writes to a file'],
    ['ls >& file', false, '>& file writes to a file'],
    ['ls >| f', false, '>| f writes to a file'],
    ['cat 3<> f', false, '3<> f opens a file for writing'],
    ['cat < /dev/tcp/10.0.0.1/80', false, 'opens a network connection'],
    ['echo x > /dev/udp/10.0.0.1/53', false, 'opens a network connection'],
    ['ls > "$OUT"', false, '$OUT is a variable expanded at run time'],
    ['> file', false, '> file writes to a file'],
  ])
})

describe('wrappers, UNC paths and path-qualified names', () => {
  itClassifies([
    ['command ls -la', true, 'ls with these flags only reads'],
    ['builtin echo hi', true, 'echo with these flags only reads'],
    ['noglob ls', true, 'ls with these flags only reads'],
    ['command builtin cat f', true, 'cat with these flags only reads'],
    ['command rm x', false, 'rm deletes files'],
    ['command -v ls', true, 'command -v only looks names up'],
    ['command -p rm x', false, 'command is not a known read-only command'],
    ['cat \\\\\\\\server\\\\share\\\\f', false, 'is a UNC path'],
    ['cat //server/share/f', true, 'cat with these flags only reads'],
    ['./cat f', false, './cat runs the file at that path, not a known command'],
    ['/tmp/x/cat f', false, '/tmp/x/cat runs the file at that path'],
    ['bin/ls', false, 'bin/ls runs the file at that path'],
  ])
  itClassifies(
    [
      ['cat //server/share/f', false, 'is a UNC path'],
      ['cat --file=\\\\\\\\host\\\\x', false, 'is a UNC path'],
      ['bin\\\\ls', false, 'runs the file at that path'],
    ],
    'win32',
  )
})
