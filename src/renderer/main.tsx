import { StrictMode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { createClient } from '../shared/ipc/client'
import { contract } from '../shared/ipc/contract'
import { App } from './App'
import { ConnectionProvider } from './connection/ConnectionProvider'
import { logInFromAddress } from './login/browser-login'
import { LoginProblem } from './login/LoginProblem'
import { ClientContext } from './rpc'
import { type ConnectedTransport, connectBrowserTransport, electronTransport } from './transport'
import './styles.css'

const element = document.getElementById('root')
if (!element) throw new Error('index.html has no #root')
const root = createRoot(element)

function renderApp(target: Root, { transport, onStatus, logOut }: ConnectedTransport): void {
  const client = createClient(contract, transport)
  target.render(
    <StrictMode>
      <ClientContext.Provider value={client}>
        <ConnectionProvider onStatus={onStatus} logOut={logOut}>
          <App />
        </ConnectionProvider>
      </ClientContext.Provider>
    </StrictMode>,
  )
}

const electron = electronTransport()
if (electron) {
  renderApp(root, electron)
} else {
  void logInFromAddress({
    location,
    history,
    storage: sessionStorage,
    fetch: window.fetch.bind(window),
  }).then((outcome) => {
    if (outcome.ok) renderApp(root, connectBrowserTransport(outcome.key))
    else root.render(<LoginProblem refusal={outcome.refusal} />)
  })
}
