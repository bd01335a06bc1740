import { describe } from 'vitest'
import { itClassifies } from '../classify-table'

describe('exact argv', () => {
  itClassifies([
    ['node -v', true, 'node -v only prints information'],
    ['python3 --version', true, 'python3 --version only prints information'],
    ['ip addr', true, 'ip addr only prints information'],
    ['arch', true, 'arch only prints information'],
    ['arch -x86_64 rm -rf x', false, 'arch with operands runs a command'],
    ['history', true, 'history only prints information'],
    ['history 20', true, 'history N only prints the last N entries'],
    ['history -c', false, 'history with flags can clear or write the history file'],
    ['ifconfig eth0', true, 'ifconfig IFACE only prints that interface'],
    ['ifconfig eth0 down', false, 'ifconfig with more operands configures an interface'],
    ['node -e "require(1)"', false, 'node runs code'],
    ['ip link set eth0 down', false, 'ip is not a known read-only command'],
  ])
})

describe('multi-word prefixes', () => {
  itClassifies([
    ['docker inspect web', false, 'docker inspect without -f/--format prints the environment'],
    ["docker inspect -f '{{.State.Status}}' web", true, 'docker inspect with these flags only reads'],
    ["docker inspect --format '{{.NetworkSettings.IPAddress}} {{.Name}}' web", true, 'only reads'],
    ["docker inspect -f '{{.Config.Env}}' web", false, 'naming Env prints the environment'],
    ["docker inspect -f '{{range .Config.Env}}{{println .}}{{end}}' web", false, 'is not a plain field'],
    ["docker inspect -f '{{json .Config}}' web", false, 'prints a whole object, environment included'],
    ["docker inspect -f '{{json .}}' web", false, 'is not a plain field, and may print the environment'],
    ["docker inspect -f '{{.ContainerConfig}}' img", false, 'prints a whole object'],
    ['docker inspect --format json web', false, 'prints whole objects, environment included'],
    ['docker inspect -f \'{{index .Config "ENV"}}\' web', false, 'is not a plain field'],
    ['docker logs --tail 50 web', true, 'docker logs with these flags only reads'],
    ['docker ps -a --format "{{.Names}}"', true, 'docker ps with these flags only reads'],
    ['docker images -q', true, 'docker images with these flags only reads'],
    ['docker ps --mount x', false, 'docker ps --mount is not a flag known to be read-only'],
    ['docker -H tcp://evil ps', false, 'docker is not a known read-only command'],
    ['docker rm web', false, 'docker is not a known read-only command'],
    ['gh auth status', true, 'gh auth status with these flags only reads'],
    ['gh pr view 12 --comments', true, 'gh pr view with these flags only reads'],
    ['gh pr list --state open --limit 5', true, 'gh pr list with these flags only reads'],
    ['gh run view 123 --log-failed', true, 'gh run view with these flags only reads'],
    ['gh search code "foo bar" --repo cli/cli', true, 'gh search code with these flags only reads'],
    ['gh pr view 12 --web', false, 'gh --web opens a browser'],
    ['gh pr merge 12', false, 'gh is not a known read-only command'],
    ['gh repo view --repo evil.example.com/o/r', false, 'could point gh at another host'],
    ['gh pr view git@evil:o/r', false, 'could point gh at another host'],
    ['gh issue view https://evil.example/o/r/issues/1', false, 'could point gh at another host'],
  ])
})

describe('systemctl read forms', () => {
  itClassifies([
    ['systemctl status nginx --no-pager', true, 'systemctl status with these flags only reads'],
    ['systemctl list-units --type=service --state=running', true, 'systemctl list-units with these flags'],
    ['systemctl is-active -q docker', true, 'systemctl is-active with these flags only reads'],
    ['systemctl restart nginx', false, 'systemctl is not a known read-only command'],
    ['systemctl show nginx', false, 'systemctl show without -p prints every property'],
    ['systemctl show -p Environment nginx', false, "prints a unit's environment"],
    ['systemctl show --property=MainPID,PassEnvironment nginx', false, "prints a unit's environment"],
    ['systemctl show -p MainPID,ActiveState nginx', true, 'systemctl show with these flags only reads'],
  ])
})

describe('any-args commands', () => {
  itClassifies([
    ['ls -la --color=always src', true, 'ls with these flags only reads'],
    ['echo hello > /dev/null', true, 'echo with these flags only reads'],
    ['which -a node', true, 'which with these flags only reads'],
    ['stat -c %s f', true, 'stat with these flags only reads'],
    ['diff -u a b', true, 'diff with these flags only reads'],
    ['sha256sum -c sums', true, 'sha256sum with these flags only reads'],
    ['du -sh .', true, 'du with these flags only reads'],
    ['pwd', true, 'pwd with these flags only reads'],
    // It only prints; the decision asks, since every variable is printed (issue 21.4).
    ['printenv', true, 'printenv only prints environment variables'],
    ['frobnicate --all', false, 'frobnicate is not a known read-only command'],
  ])
})
