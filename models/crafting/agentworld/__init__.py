"""AgentWorld's own task files and success-criteria verifiers, read and run as upstream defines them."""
