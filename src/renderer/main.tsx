import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createClient } from '../shared/ipc/client'
import { contract } from '../shared/ipc/contract'
import { App } from './App'
import { ConnectionProvider } from './connection/ConnectionProvider'
import { ClientContext } from './rpc'
import { connectTransport } from './transport'
import './styles.css'

const { transport, onStatus } = connectTransport()
const client = createClient(contract, transport)
const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root')

createRoot(root).render(
  <StrictMode>
    <ClientContext.Provider value={client}>
      <ConnectionProvider onStatus={onStatus}>
        <App />
      </ConnectionProvider>
    </ClientContext.Provider>
  </StrictMode>,
)
