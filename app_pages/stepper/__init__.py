"""The Layers page's stepper, in parts: what a run works on and where it draws (`stepping`), the controls and
words (`controls`), the step's figures (`canvas`), the four stages (`stages`) and one cell explained (`cells`)."""
