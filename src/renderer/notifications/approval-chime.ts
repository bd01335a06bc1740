/** Two short notes, quiet: noticed from across the room, not alarming. */
const NOTES_HZ = [660, 880] as const
const NOTE_S = 0.12
const VOLUME = 0.08

let context: AudioContext | null = null

/**
 * Made (or resumed) from a click, since browsers keep audio silent until the page was used: the
 * settings checkbox calls this, so the chime can play later with nobody at the keyboard.
 */
export function unlockChime(): boolean {
  if (typeof AudioContext === 'undefined') return false
  context ??= new AudioContext()
  void context.resume()
  return true
}

/** Whether the page may play the chime now (false until a click after a reload, in a browser). */
export function chimeReady(): boolean {
  return context?.state === 'running'
}

/** Plays the chime; made with an oscillator, so no sound file and no extra fetch. */
export function playChime(): boolean {
  const audio = context
  if (audio?.state !== 'running') return false
  const start = audio.currentTime
  NOTES_HZ.forEach((hz, index) => {
    const oscillator = audio.createOscillator()
    const gain = audio.createGain()
    oscillator.frequency.value = hz
    gain.gain.setValueAtTime(VOLUME, start + index * NOTE_S)
    gain.gain.exponentialRampToValueAtTime(0.0001, start + (index + 1) * NOTE_S)
    oscillator.connect(gain).connect(audio.destination)
    oscillator.start(start + index * NOTE_S)
    oscillator.stop(start + (index + 1) * NOTE_S)
  })
  return true
}
