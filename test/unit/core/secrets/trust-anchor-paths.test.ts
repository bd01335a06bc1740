import { describe, expect, it } from 'vitest'
import { isCredentialName } from '../../../../src/main/core/secrets/credential-env-names'

// Issue 22.8: a CA path was listed as a withheld credential (AWS_CA_BUNDLE). Certificate
// authorities are public; their private keys and everything else under AWS_ are not.
describe('certificate-authority paths are not credentials', () => {
  it.each([
    'AWS_CA_BUNDLE',
    'NODE_EXTRA_CA_CERTS',
    'REQUESTS_CA_BUNDLE',
    'CURL_CA_BUNDLE',
    'GIT_SSL_CAINFO',
    'NPM_CONFIG_CAFILE',
    'MY_TOKEN_SERVICE_CA_FILE',
    // A CA word with the file/path suffix after it, whatever comes before (issue 22.8's class).
    'AUTH_SERVICE_CA_CERT_FILE',
    'TOKEN_ISSUER_CA_BUNDLE_PATH',
    'SECRETS_MANAGER_ROOT_CA',
    'AUTH_PROXY_TLS_CA_FILE',
    'VAULT_CACERT',
    'GRPC_AUTH_CACERTS_DIR',
  ])('%s is passed to commands', (name) => expect(isCredentialName(name)).toBe(false))
  it.each([
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_PROFILE',
    'VAULT_CA_KEY',
    'VAULT_CA_KEY_FILE',
    'AUTH_SERVICE_CA_KEY_PATH',
    'ROOT_CA_PASSWORD',
    'TLS_CA_TOKEN',
    'SSL_KEY_FILE',
    'GITHUB_TOKEN',
  ])('%s is still withheld', (name) => expect(isCredentialName(name)).toBe(true))
})
