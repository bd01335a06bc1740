import { LOGIN_REFUSAL_MESSAGES, type LoginRefusalCode } from '../../shared/browser-login'

/** The whole page when login failed: nothing else can work without a key, so nothing else shows. */
export function LoginProblem({ refusal }: { refusal: LoginRefusalCode }) {
  return (
    <main className="app-main login-problem" data-refusal={refusal}>
      <h1>Shellgate</h1>
      <p role="alert">{LOGIN_REFUSAL_MESSAGES[refusal]}</p>
    </main>
  )
}
