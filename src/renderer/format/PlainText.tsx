import { revealInvisible } from '../../shared/reveal-invisible'

/** A sentence from main where `backticks` mark a command or rule: shown as code, invisible characters revealed. */
export function PlainText({ text }: { text: string }) {
  const pieces = text.split('`')
  // An odd count of backticks means one was part of a command: show the text as it is.
  if (pieces.length % 2 === 0) return <>{revealInvisible(text).text}</>
  return (
    <>
      {pieces.map((piece, index) =>
        index % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed sentence never reorder.
          <code key={index}>{revealInvisible(piece).text}</code>
        ) : (
          revealInvisible(piece).text
        ),
      )}
    </>
  )
}
