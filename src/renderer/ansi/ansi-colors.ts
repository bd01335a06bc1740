import type { AnsiColor } from './parse-ansi'

/** xterm's 6×6×6 cube and grey ramp for palette indexes 16–255; 0–15 come from the theme (CSS classes). */
export function paletteRgb(index: number): [number, number, number] {
  if (index >= 232) {
    const grey = 8 + (index - 232) * 10
    return [grey, grey, grey]
  }
  const cube = index - 16
  const level = (step: number) => (step === 0 ? 0 : 55 + step * 40)
  return [level(Math.floor(cube / 36)), level(Math.floor(cube / 6) % 6), level(cube % 6)]
}

/** A CSS colour value for colours outside the themed 16, or null when a class covers it. */
export function cssColor(color: AnsiColor): string | null {
  if (color.kind === 'rgb') return `rgb(${color.r}, ${color.g}, ${color.b})`
  if (color.index < 16) return null
  const [r, g, b] = paletteRgb(color.index)
  return `rgb(${r}, ${g}, ${b})`
}
