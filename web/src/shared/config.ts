/**
 * Settings read at build time from Vite env vars (VITE_*), with the organisers' defaults.
 * Change them per deployment without touching code, e.g. VITE_INSTAGRAM_URL=... npm run build.
 */
const env = import.meta.env;

export const socialLinks = {
  instagram: env.VITE_INSTAGRAM_URL || 'https://www.instagram.com/identidad.prode/',
  facebook: env.VITE_FACEBOOK_URL || 'https://www.facebook.com/identidad.prode/',
  telegram: env.VITE_TELEGRAM_URL || 'https://t.me/identidadprode',
} as const;
