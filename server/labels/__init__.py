"""Human labels on trials, the review queue that samples them, and the judge's agreement."""
