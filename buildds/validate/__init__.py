"""validate stage."""
