import { describe } from 'vitest'
import { itClassifies } from '../classify-table'

describe('known write options come first', () => {
  itClassifies([
    ['sed -i s/a/b/ f', false, 'sed -i edits files in place'],
    ['sed -i.bak s/a/b/ f', false, 'sed -i edits files in place'],
    ['sed -ni p f', false, 'sed -i edits files in place'],
    ['sed -Ei s/a/b/ f', false, 'sed -i edits files in place'],
    ['sed --in-place=.orig p f', false, 'sed --in-place edits files in place'],
    ['sed -n -e s/i/x/ f', true, 'sed with these flags only reads'],
    ['sed -e -i f', false, 'the sed command "-", which is not known to only read'],
    ...[
      '-delete',
      '-exec rm {} ;',
      '-execdir rm {} +',
      '-ok rm {} ;',
      '-okdir rm {} ;',
      '-fprint out',
      '-fprint0 out',
      '-fprintf out %p',
      '-fls out',
    ].map((action): [string, boolean, string] => [
      `find . -name x ${action}`,
      false,
      `find ${action.split(' ')[0]}`,
    ]),
    ['find . -name "*.ts" -type f -print0', true, 'find with these flags only reads'],
    ['tree -o out.txt', false, 'tree -o writes its output to a file'],
    ['tree -ao out.txt', false, 'tree -o writes its output to a file'],
    ['tree -R -H .', false, 'tree -R writes 00Tree.html'],
    ['tree -L 2 -a src', true, 'tree with these flags only reads'],
  ])
})
