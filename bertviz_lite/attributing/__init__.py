"""Which input tokens an output rests on: a target (`targets`: two sentences' cosine, or a masked-LM logit) as a
differentiable function of the word embeddings, gradient × input and integrated gradients through Captum
(`gradients`, imported only when asked for), and every method's faithfulness measured by deletion curves and their
AOPC (`deletion`)."""
