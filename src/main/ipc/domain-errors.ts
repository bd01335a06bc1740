import { RpcError } from '../../shared/ipc/errors'
import { InputError } from '../core/input-error'
import { NetworkConfigError } from '../core/network/network-error'
import { SettingsError } from '../core/settings/settings-error'
import { TaskError } from '../core/tasks/task-error'
import { WorkbenchError } from '../core/workbench/workbench-error'

/**
 * The services' errors that a person can act on, as wire codes. Their messages start with the
 * field at fault (`timeout: …`), so `method: field: message` lets a UI put it next to that field.
 */
export function mapDomainError(error: unknown, method: string): RpcError | null {
  if (error instanceof WorkbenchError) return new RpcError(error.code, `${method}: ${error.message}`)
  if (error instanceof SettingsError) {
    return new RpcError(
      error.code === 'unwritable' ? 'denied' : 'invalid_input',
      `${method}: ${error.message}`,
    )
  }
  if (error instanceof NetworkConfigError || error instanceof InputError || error instanceof TaskError) {
    return new RpcError('invalid_input', `${method}: ${error.message}`)
  }
  return null
}
