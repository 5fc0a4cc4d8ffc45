"""Johnny and the Toe-Sap Fungus: walk the beach, drop toe-sap, collect the others'."""
