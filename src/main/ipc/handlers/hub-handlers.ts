import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { HubHello, UiOpened } from '../../../shared/ipc/domains/hub'
import { RpcError } from '../../../shared/ipc/errors'
import type { Handlers } from '../dispatcher'

/** What the process serving the hub endpoint answers about itself. */
export interface HubControl {
  hello(): HubHello
  /** A fresh address for one more browser; browser mode mints a one-time code in it. */
  mintUiAddress(): string
  /** Opens a fresh login address in the person's browser from this process; the code stays here. */
  openUi(): Promise<UiOpened>
}

type HubHandlers = Pick<Handlers<ShellgateContract>, 'hub.hello' | 'hub.mintUiAddress' | 'hub.openUi'>

export function hubHandlers(control: () => HubControl | null): HubHandlers {
  const current = (method: string) => {
    const value = control()
    if (!value) throw new RpcError('denied', `${method}: this Shellgate is not serving a hub endpoint`)
    return value
  }
  const withUi = (method: string) => {
    const value = current(method)
    if (value.hello().uiUrl === null) throw new RpcError('denied', `${method}: this hub serves no browser UI`)
    return value
  }
  return {
    'hub.hello': () => current('hub.hello').hello(),
    'hub.mintUiAddress': () => ({ url: withUi('hub.mintUiAddress').mintUiAddress() }),
    'hub.openUi': () => withUi('hub.openUi').openUi(),
  }
}
