"""The hook dispatcher: runs inside each harness on every hook event. Standard library only.

It never imports the build side (`hookmsg`); what the two share crosses as generated data.
"""
