"""The lab: campaigns, the runner, the result store, analysis, claims, plots and reports."""
