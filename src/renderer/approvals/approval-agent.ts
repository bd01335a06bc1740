/** The agent a card is for, as the inbox names it: who, which version, in which workspace. */
export interface ApprovalAgent {
  name: string
  version: string | null
  workspace: string
}
