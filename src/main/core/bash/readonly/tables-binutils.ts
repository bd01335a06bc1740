import { type CommandPolicy, flagTable } from './flag-types'

// GNU binutils 2.40. Every one expands `@FILE` words into the arguments FILE holds before reading
// any option (libiberty's expandargv), after `--` and inside values too; none of these three has
// an option that writes or runs a program, so a response file is read and what it names is known
// only at run time (responseFiles in the parser).

const strings: CommandPolicy = {
  flags: flagTable({
    none: `-a --all -d --data -f --print-file-name -w --include-all-whitespace -o -h --help -v -V
      --version -0 -1 -2 -3 -4 -5 -6 -7 -8 -9`,
    string: '-n --bytes -t --radix -e --encoding -T --target -s --output-separator -U --unicode',
  }),
  responseFiles: true,
}

const objdump: CommandPolicy = {
  flags: flagTable({
    none: `-a --archive-headers -f --file-headers -p --private-headers -h --headers --section-headers -x
      --all-headers -d -D --disassemble-all -S --source -s --full-contents -g --debugging -e
      --debugging-tags -G --stabs -L --process-links -t --syms -T --dynamic-syms -r --reloc -R
      --dynamic-reloc -v --version -i --info -H --help --file-start-context -l --line-numbers -F
      --file-offsets -C --recurse-limit --no-recurse-limit -w --wide -z --disassemble-zeroes
      --no-addresses --prefix-addresses --show-raw-insn --no-show-raw-insn --show-all-symbols
      --special-syms --inlines --dwarf-check`,
    string: `-P --private -b --target -m --architecture -j --section -M --disassembler-options -E --endian
      -I --include -U --unicode --start-address --stop-address --insn-width --adjust-vma --prefix
      --prefix-strip --dwarf-depth --dwarf-start --ctf-parent --disassembler-color`,
    optionalString: '--disassemble --source-comment --dwarf -W --ctf --sframe --demangle --visualize-jumps',
  }),
  // -S prints lines of the source files the object's debug information names: any file at all.
  runTimeFilesWith: ['-S', '--source', '--source-comment'],
  responseFiles: true,
}

const readelf: CommandPolicy = {
  flags: flagTable({
    none: `-a --all -h --file-header -l --program-headers --segments -S --section-headers --sections -g
      --section-groups -t --section-details -e --headers -s --syms --symbols --dyn-syms --lto-syms -C
      --no-demangle --recurse-limit --no-recurse-limit -n --notes -r --relocs -u --unwind -d --dynamic
      -V --version-info -A --arch-specific -c --archive-index -D --use-dynamic -L --lint
      --enable-checks -z --decompress -P --process-links -I --histogram -W --wide -T
      --silent-truncation -H --help -v --version`,
    string: `-U --unicode -x --hex-dump -p --string-dump -R --relocated-dump --dwarf-depth
      --dwarf-start --ctf --ctf-parent --ctf-symbols --ctf-strings`,
    optionalString: '--sym-base --demangle -w --debug-dump --sframe',
  }),
  responseFiles: true,
}

/** binutils that print what an object file holds. */
export const BINUTILS_POLICIES: Readonly<Record<string, CommandPolicy>> = { strings, objdump, readelf }
