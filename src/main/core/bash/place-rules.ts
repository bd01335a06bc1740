import { homedir } from 'node:os'
import path from 'node:path'
import type { AnalyzedCommand, WordGlob } from './analysis/command-analysis'
import type { CallOptions, ClassifyOptions, RunFolders } from './classify-options'
import { expandGlob } from './places/glob-expand'
import { judgeReadPaths } from './places/read-places'
import { findLinksReached } from './places/found-links'
import { findSecretBelow } from './places/secret-index'
import { type GlobSemantics, globSemantics, UNKNOWN_GLOBBING } from './places/shell-globbing'
import { isCredentialName } from '../secrets/credential-env-names'
import { credentialReads } from './readonly/environment-readers'
import type { PartVerdict } from './readonly/part-policy'
import type { ReadConcern } from './verdict'

/**
 * Class 6: a process's environment refuses the part; secrets and outside places ask (deduplicated).
 * Each part is judged from every folder it may run in (after a `cd`, the old one too, in case the
 * cd failed); after a cd to a folder only known at run time, relative paths ask. A path known only
 * at run time asks wherever the command runs, with or without a workspace (issue 21.6). Every
 * file a glob word of the part picks, as the session's shell would pick it, is judged as a read.
 */
export function applyPlaceRules(
  parts: readonly AnalyzedCommand[],
  verdicts: PartVerdict[],
  folders: RunFolders,
  options: CallOptions,
): ReadConcern[] {
  const concerns = new Map<string, ReadConcern>()
  const semantics = globSemantics(options.globbing ?? UNKNOWN_GLOBBING)
  verdicts.forEach((verdict, index) => {
    if (!verdict.readOnly) return
    for (const concern of credentialConcerns(parts[index], verdict))
      concerns.set(`env:${concern.path}`, concern)
    if (!verdict.paths) return
    const globs = shellGlobs(parts[index], semantics)
    if (verdict.paths.length === 0 && globs.length === 0 && !verdict.unknownPaths) return
    const dirs = folders[index] ?? null
    if (verdict.unknownPaths) {
      const reason = `${verdict.name} reads paths only known at run time, maybe outside the workspace`
      // Secret-kind: a path only known at run time may be a key or /proc/self/environ, so even
      // readsOutsideWorkspace: allow asks.
      concerns.set(`run-time:${index}`, { kind: 'secret', path: '(known at run time)', reason })
    }
    const isAbsolute = (word: string) => word.startsWith('/') || word.startsWith('~')
    const absolute = verdict.paths.filter(isAbsolute)
    const judged =
      dirs === null
        ? [{ cwd: options.cwd, paths: absolute, globs: globs.filter((glob) => isAbsolute(glob.pattern)) }]
        : dirs.map((cwd) => ({ cwd, paths: verdict.paths as string[], globs }))
    if (dirs === null) {
      const relative = [...verdict.paths, ...globs.map((glob) => glob.pattern)].filter(
        (word) => !isAbsolute(word),
      )
      for (const word of relative) {
        const reason = `reads ${word} in a folder only known at run time, maybe outside the workspace`
        concerns.set(`unknown:${word}`, { kind: 'secret', path: word, reason })
      }
    }
    for (const { cwd, paths, globs: patterns } of judged) {
      const picked: string[] = []
      for (const glob of patterns) {
        const found = expandPattern(glob, cwd, semantics, options)
        if ('unknown' in found) {
          const reason = `reads the files ${glob.pattern} picks at run time, which may be outside the workspace (${found.unknown})`
          concerns.set(`glob:${glob.pattern}`, { kind: 'secret', path: glob.pattern, reason })
        } else picked.push(...found.matches)
      }
      if (verdict.followsLinks) {
        // A glob word (`diff -- *`) may become folders too.
        const folders = [...paths, ...picked].filter(
          (word) =>
            /[*?[]/.test(word) ||
            options.lookups.stat(path.resolve(cwd, expandHome(word, options)))?.isDirectory(),
        )
        for (const folder of folders) {
          const reason = `${verdict.name} follows symlinks inside ${folder}, to files no path check sees`
          concerns.set(`links:${folder}`, { kind: 'secret', path: folder, reason })
        }
      }
      const judgement = judgeReadPaths(picked.length === 0 ? paths : [...paths, ...picked], options, cwd)
      if (judgement.refused) {
        verdict.readOnly = false
        verdict.reason = judgement.refused
        return
      }
      for (const concern of judgement.concerns) concerns.set(`${concern.kind}:${concern.path}`, concern)
      if (verdict.walks) {
        const roots = verdict.walkRoots
          ? verdict.walkRoots.filter((word) => dirs !== null || isAbsolute(word))
          : paths
        for (const word of [...roots, ...picked]) {
          const folder = path.resolve(cwd, expandHome(word, options))
          if (!options.lookups.stat(folder)?.isDirectory()) continue
          // A folder already asked about as a secrets location (`grep -r token ~`) needs no walk.
          const real = options.lookups.realFolder(folder)
          if (judgement.concerns.some((concern) => concern.kind === 'secret' && concern.path === real))
            continue
          const found = findSecretBelow(folder, verdict.walks, options.lookups)
          const reason =
            'unknown' in found
              ? `${verdict.name} reads every file under ${word}: ${found.unknown}`
              : found.secret === null
                ? null
                : `${verdict.name} reads every file under ${word}, ${path.relative(cwd, found.secret) || found.secret} among them`
          if (reason !== null) concerns.set(`holds:${folder}`, { kind: 'secret', path: folder, reason })
        }
      }
      if (verdict.foundLinks) {
        // `find . -exec cat {} +` hands each symlink it finds to cat, which reads where it leads;
        // `find -L` lists what is there: every link met is judged as a path read, through to its target.
        for (const word of [...paths, ...picked]) {
          const folder = path.resolve(cwd, expandHome(word, options))
          if (!options.lookups.stat(folder)?.isDirectory()) continue
          const found = findLinksReached(folder, verdict.foundLinks, options.lookups)
          if ('unknown' in found) {
            const reason = `${verdict.name} reads through the symlinks under ${word}: ${found.unknown}`
            concerns.set(`links:${folder}`, { kind: 'secret', path: folder, reason })
            continue
          }
          const links = judgeReadPaths(found.links, options, cwd)
          if (links.refused) {
            verdict.readOnly = false
            verdict.reason = links.refused
            return
          }
          for (const concern of links.concerns) concerns.set(`${concern.kind}:${concern.path}`, concern)
        }
      }
    }
  })
  return [...concerns.values()]
}

/**
 * Issue 21.4: expanding a variable whose name carries a credential (`echo "$DATABASE_URL"`), or
 * printing every variable (`printenv`, `env`, `set`, `declare -p`, `export -p`) or a credential
 * one (`printenv SENTRY_DSN`), or listing names (`${!AWS*}`), asks first.
 */
function credentialConcerns(part: AnalyzedCommand | undefined, verdict: PartVerdict): ReadConcern[] {
  const found: ReadConcern[] = []
  const secret = (what: string, reason: string) => found.push({ kind: 'secret', path: what, reason })
  for (const expansion of part?.wordExpansions ?? []) {
    if (expansion.kind !== 'parameter') continue
    const names = /^\$\{!(\w+)[*@]\}$/.exec(expansion.text)
    if (names) {
      secret(expansion.text, `${expansion.text} lists the names of the variables that start with ${names[1]}`)
      continue
    }
    const name = expansion.text.replace(/^\$\{?|\}$/g, '')
    if (isCredentialName(name))
      secret(`$${name}`, `reads the variable ${name}, whose name says it holds a credential`)
  }
  const printed = credentialReads(verdict.environmentReads)
  if (printed === 'all')
    secret('(every variable)', `${verdict.name} prints every variable, credentials included`)
  else
    for (const name of printed)
      secret(`$${name}`, `${verdict.name} prints ${name}, whose name says it holds a credential`)
  return found
}

/** The part's words that this shell globs. */
function shellGlobs(part: AnalyzedCommand | undefined, semantics: GlobSemantics): WordGlob[] {
  if (!part) return []
  return part.globs.filter(
    (glob): glob is WordGlob => glob !== null && (glob.bash || (glob.zsh && semantics.zshExtended)),
  )
}

/** `~/…` is the home folder, escaped so its own characters are never patterns; `~user` is unknown. */
function expandPattern(glob: WordGlob, cwd: string, semantics: GlobSemantics, options: CallOptions) {
  const { pattern } = glob
  if (!pattern.startsWith('~')) return expandGlob(pattern, cwd, semantics, options.lookups)
  if (pattern !== '~' && !pattern.startsWith('~/')) return { unknown: "another user's home" }
  const home = (options.home ?? homedir()).replace(/[\\*?[\]^#~(|)@!+]/g, '\\$&')
  return expandGlob(`${home}${pattern.slice(1)}`, cwd, semantics, options.lookups)
}

export function expandHome(word: string, options: ClassifyOptions): string {
  const home = options.home ?? homedir()
  return word === '~' ? home : word.startsWith('~/') ? path.join(home, word.slice(2)) : word
}
