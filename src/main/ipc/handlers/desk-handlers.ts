import type { ShellgateContract } from '../../../shared/ipc/contract'
import { RpcError } from '../../../shared/ipc/errors'
import type { Core } from '../../core/app'
import type { Handlers } from '../dispatcher'

type DeskHandlers = Pick<
  Handlers<ShellgateContract>,
  | 'tasks.decisions'
  | 'tasks.clearDecision'
  | 'rules.offers'
  | 'rules.acceptOffer'
  | 'rules.dismissOffer'
  | 'agents.status'
>

const notYet = (method: string) => () => {
  throw new RpcError('internal', `${method}: not built yet on this branch (issue 22)`)
}

/** Issue 22's desk methods: kept decisions, learned rule offers, agent setup status. */
export function deskHandlers(_core: Core): DeskHandlers {
  return {
    'tasks.decisions': notYet('tasks.decisions'),
    'tasks.clearDecision': notYet('tasks.clearDecision'),
    'rules.offers': notYet('rules.offers'),
    'rules.acceptOffer': notYet('rules.acceptOffer'),
    'rules.dismissOffer': notYet('rules.dismissOffer'),
    'agents.status': notYet('agents.status'),
  }
}
