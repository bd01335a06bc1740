import type { CommandPolicy } from './flag-types'
import { ADMIN_POLICIES } from './tables-admin'
import { SEARCH_POLICIES } from './tables-search'
import { SYSTEM_POLICIES } from './tables-system'
import { TEXT_POLICIES } from './tables-text'

/** Every command with a flag table, by name. */
export const COMMAND_POLICIES: ReadonlyMap<string, CommandPolicy> = new Map(
  Object.entries({ ...SEARCH_POLICIES, ...TEXT_POLICIES, ...SYSTEM_POLICIES, ...ADMIN_POLICIES }),
)
