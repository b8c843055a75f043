// The real-engine task's prompts as HELM's multiple_choice_joint adapter builds them
// (scripts/real-engine/make_task.py `prompt`), from the custom_mcqa file the gate set uses; with
// the answer appended they are the reference text llama-perplexity reads.
import { readFileSync } from 'node:fs'

const INSTRUCTIONS = 'The following are multiple choice questions (with answers).\n'
const LETTERS = ['A', 'B', 'C', 'D']

export function additionPrompts(file, withAnswer = false) {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map(line => {
      const q = JSON.parse(line)
      let text = `${INSTRUCTIONS}\nQuestion: ${q.input.text}\n`
      q.references.forEach((r, i) => (text += `${LETTERS[i]}. ${r.output.text}\n`))
      text += 'Answer:'
      if (withAnswer) text += ` ${LETTERS[q.references.findIndex(r => r.tags.includes('correct'))]}\n`
      return { id: q.id, text }
    })
}
