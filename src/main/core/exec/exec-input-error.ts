import { InputError } from '../input-error'

/** Bad input to the executor, detected before anything is spawned. */
export class ExecInputError extends InputError {
  override name = 'ExecInputError'
}
