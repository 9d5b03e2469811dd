/**
 * A binding's OpenAI strict form, derived when an OpenAI adapter or an OpenAI-dialect call first needs it
 * (the bindings file does not store it) with the converter the tools emitter writes `tools/openai` with,
 * so both give the same parameters and the same JSON-encoded pointers. Kept per binding object.
 */
import type { ToolBinding } from '../types.js';
import { toStrictForm, type StrictForm } from './to-openai.js';

const forms = new WeakMap<ToolBinding, StrictForm>();

export function strictFormOf(binding: ToolBinding): StrictForm {
  let form = forms.get(binding);
  if (form === undefined) {
    const source: Parameters<typeof toStrictForm>[0] = {
      inputSchema: binding.inputSchema,
      description: binding.description,
    };
    if (binding.keyProperty !== undefined) source.keyProperty = binding.keyProperty;
    form = toStrictForm(source);
    forms.set(binding, form);
  }
  return form;
}
