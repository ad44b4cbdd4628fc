import { OplLoginForm } from './login-form.component.ts';

export { OplLoginForm };

if (!customElements.get('opl-login-form')) customElements.define('opl-login-form', OplLoginForm);

declare global {
  interface HTMLElementTagNameMap {
    'opl-login-form': OplLoginForm;
  }
}
