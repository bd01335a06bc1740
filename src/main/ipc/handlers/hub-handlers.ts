import type { ShellgateContract } from '../../../shared/ipc/contract'
import type { HubHello } from '../../../shared/ipc/domains/hub'
import { RpcError } from '../../../shared/ipc/errors'
import type { Handlers } from '../dispatcher'

/** What the process serving the hub endpoint answers about itself. */
export interface HubControl {
  hello(): HubHello
  /** A fresh address for one more browser; browser mode mints a one-time code in it. */
  mintUiAddress(): string
}

type HubHandlers = Pick<Handlers<ShellgateContract>, 'hub.hello' | 'hub.mintUiAddress'>

export function hubHandlers(control: () => HubControl | null): HubHandlers {
  const current = (method: string) => {
    const value = control()
    if (!value) throw new RpcError('denied', `${method}: this Shellgate is not serving a hub endpoint`)
    return value
  }
  return {
    'hub.hello': () => current('hub.hello').hello(),
    'hub.mintUiAddress': () => {
      const control = current('hub.mintUiAddress')
      if (control.hello().uiUrl === null)
        throw new RpcError('denied', 'hub.mintUiAddress: this hub serves no browser UI')
      return { url: control.mintUiAddress() }
    },
  }
}
