import { codeFromMessage } from './devChooser';

const message = (data: unknown, origin = window.location.origin) => new MessageEvent('message', { data, origin });

describe('codeFromMessage', () => {
  it("takes the code from the chooser's message on our own origin", () => {
    expect(codeFromMessage(message({ tipo: 'prode-codigo', code: 'abc' }))).toBe('abc');
  });

  it('ignores other origins, other messages and empty codes', () => {
    expect(codeFromMessage(message({ tipo: 'prode-codigo', code: 'abc' }, 'https://evil.example'))).toBeNull();
    expect(codeFromMessage(message({ tipo: 'otro', code: 'abc' }))).toBeNull();
    expect(codeFromMessage(message({ tipo: 'prode-codigo', code: '' }))).toBeNull();
    expect(codeFromMessage(message('prode-codigo'))).toBeNull();
  });
});
