// Signing in through the dev account chooser popup, as a person would.
import assert from 'node:assert/strict';

/**
 * From the landing: 'Ingresar con Google' opens the chooser popup; pick an account there
 * ({email, nombre} through "Usar otra cuenta", or a demo account by its button), and the popup
 * closes and the landing turns into the home (or the screen whose heading is `landsOn`).
 */
export async function signInThroughPopup(person, { email, nombre, demo = false, landsOn = `Hola ${nombre}` }) {
  const { page, context } = person;
  await page.getByRole('button', { name: 'Ingresar con Google' }).waitFor();
  // The landing tries to open the popup on its own once; a real browser blocks that. If this one
  // let it through, close it so the button's own popup is the one we use.
  for (const other of context.pages()) if (other !== page) await other.close();

  const [popup] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: 'Ingresar con Google' }).click(),
  ]);
  await popup.waitForLoadState('domcontentloaded');
  assert.match(popup.url(), /\/api\/sesion\/dev/);

  // Listening before the click: the chooser closes itself as soon as an account is picked.
  const closed = popup.waitForEvent('close', { timeout: 15_000 });
  if (demo) {
    await clickClosing(popup, popup.getByRole('button', { name: new RegExp(email.replace(/[.@]/g, '\\$&')) }).first());
  } else {
    const emailInput = popup.locator('input[name="email"]');
    if (!(await emailInput.isVisible())) await popup.getByText('Usar otra cuenta').click();
    await popup.locator('input[name="nombre"]').fill(nombre);
    await emailInput.fill(email);
    await clickClosing(popup, popup.getByRole('button', { name: 'Continuar' }));
  }
  await closed;
  await page.getByRole('heading', { name: landsOn }).waitFor({ timeout: 15_000 });
}

/** A click that makes the page close itself: the click's own bookkeeping may find it gone. */
async function clickClosing(page, locator) {
  try {
    await locator.click();
  } catch (error) {
    if (!page.isClosed()) throw error;
  }
}
