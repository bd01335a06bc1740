import type { CommandPolicy } from './flag-types'
import { ADMIN_POLICIES } from './tables-admin'
import { BINUTILS_POLICIES } from './tables-binutils'
import { BUILTIN_POLICIES } from './tables-builtins'
import { COREUTILS_POLICIES } from './tables-coreutils'
import { LISTING_POLICIES } from './tables-listing'
import { READER_POLICIES } from './tables-readers'
import { SEARCH_POLICIES } from './tables-search'
import { SYSINFO_POLICIES } from './tables-sysinfo'
import { SYSTEM_POLICIES } from './tables-system'
import { TEXT_POLICIES } from './tables-text'

/** Every command with a flag table, by name: no command is read-only without one. */
export const COMMAND_POLICIES: ReadonlyMap<string, CommandPolicy> = new Map(
  Object.entries({
    ...BUILTIN_POLICIES,
    ...COREUTILS_POLICIES,
    ...LISTING_POLICIES,
    ...SYSINFO_POLICIES,
    ...BINUTILS_POLICIES,
    ...READER_POLICIES,
    ...SEARCH_POLICIES,
    ...TEXT_POLICIES,
    ...SYSTEM_POLICIES,
    ...ADMIN_POLICIES,
  }),
)
