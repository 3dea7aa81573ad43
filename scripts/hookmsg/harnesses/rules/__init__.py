"""The harness rules: contracts and envelopes, judged on the rendered registrations."""
