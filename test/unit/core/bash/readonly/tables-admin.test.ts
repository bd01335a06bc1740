import { describe } from 'vitest'
import { itClassifies } from '../classify-table'

describe('administration tables', () => {
  itClassifies([
    ['hostname', true, 'hostname with these flags only reads'],
    ['hostname -f', true, 'hostname with these flags only reads'],
    ['hostname -I', true, 'hostname with these flags only reads'],
    ['hostname evil', false, 'hostname evil sets the host name'],
    ['hostname -F /etc/hostname', false, 'hostname -F sets the host name from a file'],
    ['hostname -b x', false, 'hostname -b sets the host name'],
    ['ss -tlnp', true, 'ss with these flags only reads'],
    ['ss -K dst 10.0.0.1', false, 'ss -K closes the sockets it matches'],
    ['ss -D dump', false, 'ss -D writes raw information to a file'],
    ['tar -tzf archive.tgz', true, 'tar with these flags only reads'],
    ['tar --list --file=a.tar', true, 'tar with these flags only reads'],
    ['tar -xzf archive.tgz', false, 'tar -x extracts files'],
    ['tar -czf out.tgz src', false, 'tar -c creates an archive'],
    ['tar -zf archive.tgz', false, 'tar without -t/--list extracts or creates archives'],
    ['tar -tf evil.example:archive.tar', false, 'reaches a remote host through rsh/ssh'],
    ['tar --force-local -tf c:archive.tar', true, 'tar with these flags only reads'],
    ['tar -tf a.tar --to-command=sh', false, 'tar --to-command runs a program'],
    ['tar -t -I zstd -f a.tar', false, 'tar -I runs a compression program'],
    ['tar -tf a.tar --checkpoint-action=exec=sh', false, 'tar --checkpoint-action can run commands'],
    ['tar -tf *', false, 'tar *: an unquoted glob expands to whatever files exist'],
    ['journalctl -u nginx -n 50 --no-pager', true, 'journalctl with these flags only reads'],
    ['journalctl --boot=-1 -p err', true, 'journalctl with these flags only reads'],
    ['journalctl -b -1', false, 'journalctl -1 is not a flag known to be read-only'],
    ['journalctl --vacuum-time=1d', false, 'journalctl --vacuum-time deletes journal files'],
    ['journalctl --rotate', false, 'journalctl --rotate rotates journal files'],
  ])
})
