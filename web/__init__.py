"""The teaching web app of liuren (`liuren serve`): web.app.create_app, web.service, web.notebook."""
