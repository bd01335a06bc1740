/** An error that belongs to no single field (the server refused, the connection dropped). */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  )
}
